from datetime import timedelta

from temporalio import activity, workflow
from temporalio.common import RetryPolicy


@workflow.defn
class Workflow:
    @workflow.run
    async def run(self) -> None:
        await workflow.execute_activity(
            always_fail_activity,
            schedule_to_close_timeout=timedelta(minutes=1),
            retry_policy=RetryPolicy(
                initial_interval=timedelta(milliseconds=1),
                backoff_coefficient=1,
                maximum_attempts=5,
            ),
        )
