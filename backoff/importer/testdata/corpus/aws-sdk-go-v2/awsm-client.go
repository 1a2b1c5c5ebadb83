package client

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
)

const DefaultRetryMaxAttempts = 3

const DefaultRetryDelay = 100 * time.Millisecond

func loadConfig(ctx context.Context, profile, region string) (aws.Config, error) {
	retryer := retry.NewStandard(func(o *retry.StandardOptions) {
		o.MaxAttempts = DefaultRetryMaxAttempts
	})

	cfg, err := awsconfig.LoadDefaultConfig(ctx,
		awsconfig.WithRegion(region),
		awsconfig.WithSharedConfigProfile(profile),
		awsconfig.WithRetryer(func() aws.Retryer { return retryer }),
	)
	if err != nil {
		return aws.Config{}, fmt.Errorf("failed to load AWS config: %w", err)
	}
	return cfg, nil
}
