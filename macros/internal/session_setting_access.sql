{#- The Spark session's settings, read and set. -#}

{#- The settings the session states, {key: value}: one `set` (rows read by column name). -#}
{% macro stated_session_settings() %}
    {%- set stated = {} -%}
    {% set sql %}
        set
    {% endset %}
    {%- for row in run_query(sql).rows -%}
        {%- do stated.update({row['key']: row['value'] | string}) -%}
    {%- endfor -%}
    {{- return(stated) -}}
{% endmacro %}

{#- The session's value of one setting (`set <key>`: its default when nothing states it). -#}
{% macro session_setting(key) %}
    {% set sql %}
        set {{ key }}
    {% endset %}
    {{- return(run_query(sql).rows[0]['value'] | string) -}}
{% endmacro %}

{#- `set <key> = <value>` for the statements that follow. -#}
{% macro set_session_setting(key, value) %}
    {% call statement('set_session_setting', fetch_result=false) %}
        set {{ key }} = {{ value }}
    {% endcall %}
{% endmacro %}

{#- True when `value` is one tideline works with for `setting`. -#}
{% macro setting_accepts(setting, value) %}
    {%- set good = [setting.value] + setting.accepted -%}
    {{- return((value | string | trim | lower) in (good | map('lower') | list)) -}}
{% endmacro %}
