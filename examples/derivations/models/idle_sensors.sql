-- Flow's idle-sensor pattern: one transform keeps each sensor's newest reading time in a
-- register; a second one reads the same readings an hour later and publishes the reading
-- after which the sensor fell silent when the register has not moved past it.
{{ config(
    materialized='derivation',
    unique_key='reading_id',
    derived_columns={'reading_id': 'bigint', 'sensor': 'string', 'silent_since': 'timestamp'},
    registers={'last_seen': {'type': 'timestamp', 'initial': none}},
) }}

{{ tideline.transform('fromReadings', source=source('bank', 'readings'), commit_column='load_tstamp', order_by='reading_id',
                      shuffle=['sensor'], update={'last_seen': 'load_tstamp'}) }}

{% call tideline.transform('fromReadingsAnHourLater', source=source('bank', 'readings'), commit_column='load_tstamp',
                            order_by='reading_id', shuffle=['sensor'], read_delay='1h') %}
    select
        reading_id,
        sensor,
        load_tstamp as silent_since
    from {{ tideline.document() }}
    where _register.last_seen <= load_tstamp
{% endcall %}
