-- A channel of readings: real-time items from hub.realtime (after mutable_time), history
-- inserted and deleted by two writers (at or before it); moving mutable_time earlier (the var
-- channels__mutable_time) makes the items after it stable, once no reading is negative.
-- depends_on: {{ source('hub', 'backfill_a') }}, {{ source('hub', 'backfill_b') }}
{{ config(
    materialized='channel',
    mutable_time=var('channels__mutable_time'),
    item_id='item_id',
    arrival_column='load_tstamp',
    columns={'value': 'int', 'label': 'string'},
    changes=['hub.backfill_a', 'hub.backfill_b'],
    checks={'value_not_negative': 'value >= 0', 'label_present': 'label is not null'},
) }}

select
    item_time,
    item_id,
    value,
    label,
    load_tstamp
from {{ source('hub', 'realtime') }}
