"""dbt's `flags` while sqlfluff lints."""
FULL_REFRESH = False
