from celery import Task, states


class BaseTaskWithRetry(Task):
    autoretry_for = (Exception,)
    max_retries = 5
    retry_backoff = 2
    retry_jitter = False

    def on_retry(self, exc, task_id, args, kwargs, einfo):
        retries = self.request.retries + 1
