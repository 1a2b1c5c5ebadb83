internal static class Retry
{
    public static void Usage()
    {
        #region retry

        var optionsDefaults = new RetryStrategyOptions();

        var optionsNoDelay = new RetryStrategyOptions
        {
            Delay = TimeSpan.Zero
        };

        var optionsComplex = new RetryStrategyOptions
        {
            ShouldHandle = new PredicateBuilder().Handle<SomeExceptionType>(),
            BackoffType = DelayBackoffType.Exponential,
            UseJitter = true,  // Adds a random factor to the delay
            MaxRetryAttempts = 4,
            Delay = TimeSpan.FromSeconds(3),
        };

        var optionsIndefiniteRetry = new RetryStrategyOptions
        {
            MaxRetryAttempts = int.MaxValue,
        };

        #endregion
    }
}
