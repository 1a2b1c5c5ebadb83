package ctlog

import (
	"context"
	"net/http"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

func NewDynamoDBBackend(ctx context.Context, region, table string, l *slog.Logger) (*DynamoDBBackend, error) {
	cfg, err := config.LoadDefaultConfig(ctx, config.WithRegion(region),
		config.WithHTTPClient(&http.Client{Transport: transport}),
		config.WithRetryer(func() aws.Retryer {
			return retry.AddWithMaxBackoffDelay(retry.NewStandard(), 5*time.Millisecond)
		}))
	if err != nil {
		return nil, fmt.Errorf("failed to load AWS config for DynamoDB backend: %w", err)
	}
	return &DynamoDBBackend{client: dynamodb.NewFromConfig(cfg)}, nil
}
