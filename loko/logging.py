"""Log output: plain text by default, one JSON object per line with LOKO_LOG_FORMAT=json."""

import logging

import orjson


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S%z"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return orjson.dumps(entry).decode()


def configure_logging(log_format: str) -> None:
    """Send the ``loko`` logger to stderr in the configured format (once per process; a
    later app's format replaces the earlier one's)."""
    logger = logging.getLogger("loko")
    handler = next((h for h in logger.handlers if getattr(h, "loko_handler", False)), None)
    if handler is None:
        handler = logging.StreamHandler()
        handler.loko_handler = True
        logger.addHandler(handler)
    if log_format == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logger.setLevel(logging.INFO)
    logger.propagate = False
