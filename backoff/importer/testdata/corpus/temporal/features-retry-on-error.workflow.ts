import type { feature } from './feature';
import { proxyActivities } from '@temporalio/workflow';

export async function workflow() {
  const { alwaysFailActivity}  = proxyActivities<typeof feature.activities>({
    startToCloseTimeout: '1 minute',
    retry: {
      initialInterval: '1 millisecond',
      backoffCoefficient: 1,
      maximumAttempts: 5,
    },
  });

  await alwaysFailActivity();
}
