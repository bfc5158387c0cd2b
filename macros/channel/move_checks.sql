{#- Mutable time: the checks of a move of mutable_time, run over the items it makes stable,
    and the refusal when one fails. -#}

{#- A move's checks, in one query over the items it makes stable: per check, the items that
    fail it and their time range. Returns the failing checks, rows by name: check_name, failing,
    first_failing, last_failing. -#}
{% macro channel_move_checks(settings, items, state, frontier, move, limits) %}
    {%- if not settings.checks -%}{{ return([]) }}{%- endif -%}
    {% set sql %}
        with
        {%- if frontier %}
        {{ tideline._channel_changes_ctes(settings, items, state, frontier, limits) }},
        {%- endif %}

        moving as (
            {{ tideline._channel_moving_items_sql(settings, items, state, move, frontier is not none) }}
        )

        {%- for name, condition in settings.checks.items() %}
        select
            '{{ name }}' as check_name,
            count(*) as failing,
            cast(min(item_time) as string) as first_failing,
            cast(max(item_time) as string) as last_failing
        from moving
        where not coalesce(({{ condition }}), false)
        {{- '\n        union all' if not loop.last }}
        {%- endfor %}
    {% endset %}
    {{- return(tideline.query_rows(sql) | selectattr('failing') | list) -}}
{% endmacro %}

{#- A move whose checks fail is refused, naming each failing check, how many items fail it and
    their time range; nothing is written. -#}
{% macro refuse_failed_move_checks(settings, state, failing) %}
    {%- set named = [] -%}
    {%- for f in failing -%}
        {%- do named.append("check {} fails for {} items from {} to {}".format(f.check_name, f.failing, f.first_failing, f.last_failing)) -%}
    {%- endfor -%}
    {{ tideline._channel_refusal(settings.name, "mutable_time stays {}, not {}: of the items it would make stable, {}. Fix them through the change relations, then run again".format(
        state.mutable_time or 'unset', settings.mutable_time, named | join('; '))) }}
{% endmacro %}
