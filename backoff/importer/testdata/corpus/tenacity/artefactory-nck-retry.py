import logging

from nck.config import logger
from tenacity import before_log, before_sleep_log
from tenacity import retry as _retry
from tenacity import stop_after_attempt, wait_exponential


def retry(fn):
    return _retry(
        wait=wait_exponential(multiplier=1, min=4, max=10),
        stop=stop_after_attempt(5),
        reraise=True,
        before=before_log(logger, logging.INFO),
        before_sleep=before_sleep_log(logger, logging.INFO),
    )(fn)
