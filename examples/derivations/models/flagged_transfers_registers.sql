-- The flagged transfers' registers as a table: each account's balance register now, and the
-- frontier of the run that last changed it (tideline.derivation_registers). Rebuilt whole every run, after flagged_transfers.
{{ config(materialized='tideline_table') }}

select
    account,
    balance,
    changed_at
from {{ tideline.derivation_registers('flagged_transfers', key_names=['account']) }}
