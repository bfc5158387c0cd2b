{#- The idle-sensor pattern's two transforms (Flow's example), shared by idle_sensors and
    idle_sensors_by_clock: one keeps each sensor's newest reading time in a register, the other
    reads the same readings an hour later and publishes the reading after which the sensor fell
    silent. `clock`: whether the readings' load time is declared the loader's clock. -#}
{% macro idle_sensor_transforms(clock) %}
{{ tideline.transform('fromReadings', source=source('bank', 'readings'), commit_column='load_tstamp', order_by='reading_id',
                      shuffle=['sensor'], update={'last_seen': 'load_tstamp'}, clock=clock) }}

{% call tideline.transform('fromReadingsAnHourLater', source=source('bank', 'readings'), commit_column='load_tstamp',
                            order_by='reading_id', shuffle=['sensor'], read_delay='1h', clock=clock) %}
    select
        reading_id,
        sensor,
        load_tstamp as silent_since
    from {{ tideline.document() }}
    where _register.last_seen <= load_tstamp
{% endcall %}
{% endmacro %}
