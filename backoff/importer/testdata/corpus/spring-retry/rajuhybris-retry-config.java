    @Bean
    public RetryTemplate retryTemplate() {
        RetryTemplate retryTemplate = new RetryTemplate();
        SimpleRetryPolicy retryPolicy = new SimpleRetryPolicy();
        retryPolicy.setMaxAttempts(3);
        BackOffPolicy backOffPolicy = new ExponentialBackOffPolicy();
        ((ExponentialBackOffPolicy) backOffPolicy).setInitialInterval(1000);
        ((ExponentialBackOffPolicy) backOffPolicy).setMultiplier(2);
        retryTemplate.setRetryPolicy(retryPolicy);
        retryTemplate.setBackOffPolicy(backOffPolicy);

        return retryTemplate;
    }
