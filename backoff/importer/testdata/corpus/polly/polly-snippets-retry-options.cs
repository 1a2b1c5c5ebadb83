internal static class Retry
{
    public static void Usage()
    {
        #region retry

        // Retry using the default options.
        // See https://www.pollydocs.org/strategies/retry#defaults for defaults.
        var optionsDefaults = new RetryStrategyOptions();

        // For instant retries with no delay
        var optionsNoDelay = new RetryStrategyOptions
        {
            Delay = TimeSpan.Zero
        };

        // For advanced control over the retry behavior, including the number of attempts,
        // delay between retries, and the types of exceptions to handle.
        var optionsComplex = new RetryStrategyOptions
        {
            ShouldHandle = new PredicateBuilder().Handle<SomeExceptionType>(),
            BackoffType = DelayBackoffType.Exponential,
            UseJitter = true,  // Adds a random factor to the delay
            MaxRetryAttempts = 4,
            Delay = TimeSpan.FromSeconds(3),
        };

        // To keep retrying indefinitely or until success use int.MaxValue.
        var optionsIndefiniteRetry = new RetryStrategyOptions
        {
            MaxRetryAttempts = int.MaxValue,
        };

        #endregion
    }
}
