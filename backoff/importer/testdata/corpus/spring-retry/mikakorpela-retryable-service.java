  @Retryable(
    retryFor = {RetryException.class},
    maxAttemptsExpression = "5",
    backoff = @Backoff(delayExpression = "1000")
  )
  public void retryableMethod() {
