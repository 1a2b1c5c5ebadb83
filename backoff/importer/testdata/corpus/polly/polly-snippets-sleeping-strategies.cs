internal static class Retry
{
    public static void Pattern_SleepingStrategies()
    {
        #region retry-pattern-sleeping-strategies

        var slowRetries = new RetryStrategyOptions
        {
            MaxRetryAttempts = 5,
            Delay = TimeSpan.FromMinutes(3),
            BackoffType = DelayBackoffType.Constant
        };

        var quickRetries = new RetryStrategyOptions
        {
            MaxRetryAttempts = 5,
            Delay = TimeSpan.FromSeconds(1),
            UseJitter = true,
            BackoffType = DelayBackoffType.Exponential
        };

        var retry = new ResiliencePipelineBuilder()
            .AddRetry(slowRetries)
            .AddRetry(quickRetries)
            .Build();

        #endregion
    }
}
