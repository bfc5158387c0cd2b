{#- Mutability: whether a run is due by the model's update_cron, and the line a skipped run logs. -#}

{#- Has a tick of the schedule passed since `last` (text), judged at tideline.now()? -#}
{% macro cron_due(settings, last) %}
    {%- set tick = tideline.cron_last(settings.update_cron, tideline.now(), 'update_cron of model {}'.format(model.name)) -%}
    {{- return(last is none or (tick is not none and tick.strftime('%Y-%m-%d %H:%M:%S') > last)) -}}
{% endmacro %}

{% macro _log_skip(settings, last) %}
    {%- set next_tick = tideline.cron_next(settings.update_cron, tideline.now(), 'update_cron of model {}'.format(model.name)) -%}
    {%- do log("tideline {} ({}): skipped, nothing to do: last refreshed {}, next tick of '{}' at {}".format(
        model.name, settings.type, last, settings.update_cron, next_tick.strftime('%Y-%m-%d %H:%M') if next_tick else 'never'), info=true) -%}
{% endmacro %}
