{#- Daily aggregates: the measures a model declares mergeable (config `measures`), checked. -#}

{#- Each kind of measure and the aggregate that merges its partial values: a count is merged by
    summing, a first (daily_first) by the smallest struct, an HLL sketch (hll_sketch_agg) by
    hll_union_agg. -#}
{% macro measure_merges() %}
    {{- return({'count': 'sum', 'sum': 'sum', 'min': 'min', 'max': 'max', 'first': 'min', 'last': 'max', 'hll': 'hll_union_agg'}) -}}
{% endmacro %}

{#- The model's declared measures, {column: kind} in lower case, or none when it declares none
    (the model recomputes whole days). A kind that cannot be merged is refused by name with the
    fix, before anything is written. -#}
{% macro daily_measures(model_name) %}
    {%- set declared = config.get('measures', none) -%}
    {%- if declared is none -%}{{ return(none) }}{%- endif -%}
    {%- set accepted = tideline.measure_merges().keys() | join(', ') -%}
    {%- if declared is not mapping or not declared -%}
        {{ tideline._model_config_error(model_name, 'measures', declared, "a mapping {{column: kind}}, kinds {}".format(accepted)) }}
    {%- endif -%}
    {%- set measures = {} -%}
    {%- for column, kind in declared.items() -%}
        {%- set name = kind | string | lower -%}
        {%- if kind is not string or name not in tideline.measure_merges() -%}
            {{ exceptions.raise_compiler_error("tideline: daily aggregate {model}: measure {column} = {kind} cannot be merged: {why}; accepted kinds: {accepted}. Nothing was written.".format(
                model=model_name, column=column, kind=kind | tojson if kind is not string else kind, why=tideline._unmergeable_reason(name), accepted=accepted)) }}
        {%- endif -%}
        {%- do measures.update({column | string | lower: name}) -%}
    {%- endfor -%}
    {{- return(measures) -}}
{% endmacro %}

{#- Why a kind cannot be merged, and what to declare instead. -#}
{% macro _unmergeable_reason(kind) %}
    {%- set reasons = {
        'avg': "an average cannot be merged from averages; declare its sum and its count as two measures (sum, count) and divide them where you read the model",
        'mean': "an average cannot be merged from averages; declare its sum and its count as two measures (sum, count) and divide them where you read the model",
        'count_distinct': "distinct counts of parts do not add up; keep hll_sketch_agg(x) as a measure of kind hll and read it with hll_sketch_estimate",
        'approx_count_distinct': "distinct counts of parts do not add up; keep hll_sketch_agg(x) as a measure of kind hll and read it with hll_sketch_estimate"} -%}
    {{- return(reasons.get(kind, "it is not a kind tideline can merge (a median or a percentile needs every value); leave `measures` out and the model recomputes whole days")) -}}
{% endmacro %}

{#- The select's columns checked against the measures (one `describe query`, on a rebuild): every
    measure is a column of the select and of a type its kind merges, the date column is not a
    measure. Returns the select's columns, in order, as {'name', 'type'}. -#}
{% macro check_measure_columns(model_name, select_sql, date_column, measures) %}
    {%- set columns = [] -%}
    {%- for row in tideline.query_rows('describe query {}'.format(select_sql)) -%}
        {%- do columns.append({'name': row.col_name | lower, 'type': row.data_type | lower}) -%}
    {%- endfor -%}
    {%- set types = {} -%}
    {%- for c in columns -%}{%- do types.update({c.name: c.type}) -%}{%- endfor -%}
    {%- set wanted = {'count': ['bigint', 'int'], 'sum': ['bigint', 'int', 'double', 'float', 'decimal'], 'hll': ['binary'], 'first': ['struct'], 'last': ['struct']} -%}
    {%- for column, kind in measures.items() -%}
        {%- set found = types.get(column) -%}
        {%- set fits = found is not none and column != date_column | lower and (kind not in wanted or (found.split('<')[0].split('(')[0] in wanted[kind])) -%}
        {%- if not fits -%}
            {%- set what = "is not a column of its select (columns: {})".format(types.keys() | join(', ')) if found is none
                else "is its date column, a key" if column == date_column | lower else "is {}, a {} measure must be {}".format(found, kind, wanted[kind] | join(' or ')) -%}
            {{ exceptions.raise_compiler_error("tideline: daily aggregate {model}: measure {column} ({kind}) {what}. Nothing was written.".format(
                model=model_name, column=column, kind=kind, what=what)) }}
        {%- endif -%}
    {%- endfor -%}
    {{- return(columns) -}}
{% endmacro %}
