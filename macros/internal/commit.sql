{#- A run's commit: one insert of its state rows, followed by a compaction past compact_every. -#}

{#- Commit a run: one insert of its date rows and its run row (a dict each; missing columns
    are null), in one file. With replace=true (a --full-refresh) the insert replaces the
    model's whole state instead: the rebuilt table has been swapped in by then, so the old
    state describes nothing any more. `files`: the files of the model's state before this
    commit, from its state query (state_files_sql); past compact_every (compact_every_setting:
    the config, or the var tideline__compact_every) the commit is followed by a compaction. Returns the files after. -#}
{% macro commit_run(model_name, run_row, date_rows=[], replace=false, files=none) %}
    {%- set columns = tideline.state_columns()[:-1] -%}
    {%- set common = {'run_id': tideline.run_id(), 'run_now': tideline.now(), 'batch': run_row.get('batch')} -%}
    {%- set rows = [] -%}
    {%- for row in date_rows + [run_row] -%}
        {%- set full = {'kind': 'date'} -%}
        {%- do full.update(common) -%}
        {%- do full.update(row) -%}
        {%- set values = [] -%}
        {%- for c in columns -%}
            {%- if c[0] == 'committed_at' -%}
                {%- do values.append('current_timestamp()') -%}
            {%- else -%}
                {%- do values.append(tideline._state_value(full.get(c[0]), c[1])) -%}
            {%- endif -%}
        {%- endfor -%}
        {%- do rows.append('({})'.format(values | join(', '))) -%}
    {%- endfor -%}
    {% call statement('commit', fetch_result=false) %}
        insert {{ 'overwrite table' if replace else 'into' }} {{ tideline.state_table() }} partition (model = '{{ model_name }}')
        select /*+ coalesce(1) */ * from values
            {{ rows | join(',\n            ') }}
        as state({{ columns | map('first') | join(', ') }})
    {% endcall %}
    {%- set files_after = 1 if replace else (files + 1 if files is not none else none) -%}
    {%- set compact_every = tideline.compact_every_setting(model_name) -%}
    {%- if files_after is not none and files_after > compact_every -%}
        {%- do tideline.compact_state(model_name) -%}
        {%- do tideline.checkpoint(model_name, 'state_compacted') -%}
        {{ log("tideline {}: state compacted, {} files of tl_state into 1 (compact_every {})".format(model_name, files_after, compact_every), info=true) }}
        {%- set files_after = 1 -%}
    {%- endif -%}
    {{- return(files_after) -}}
{% endmacro %}

{#- A typed SQL literal for a state column. -#}
{% macro _state_value(value, type) %}
    {%- if value is none -%}{{ return('cast(null as {})'.format(type)) }}{%- endif -%}
    {%- if type == 'timestamp' -%}{{ return(tideline.ts(value)) }}{%- endif -%}
    {%- if type == 'date' -%}{{ return(tideline.date_list([value])[1:-1]) }}{%- endif -%}
    {%- if type == 'string' -%}{{ return(tideline.literal(value | string)) }}{%- endif -%}
    {%- if type == 'boolean' -%}{{ return('true' if value else 'false') }}{%- endif -%}
    {{- return('cast({} as {})'.format(value, type)) -}}
{% endmacro %}
