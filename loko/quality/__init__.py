"""Quality: the checks' issues stored per value, the checks' levels per project, and the
values' review states (translated, reviewed, needs-review)."""
