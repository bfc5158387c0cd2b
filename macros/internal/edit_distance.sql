{#- The closest known name to a misspelt one. -#}

{#- The candidate with the smallest edit distance to `word`. -#}
{% macro closest_name(word, candidates) %}
    {%- set best = {'name': none, 'distance': 1000} -%}
    {%- for candidate in candidates -%}
        {%- set distance = tideline.edit_distance(word, candidate) -%}
        {%- if distance < best.distance -%}{%- do best.update({'name': candidate, 'distance': distance}) -%}{%- endif -%}
    {%- endfor -%}
    {{- return(best.name) -}}
{% endmacro %}

{#- Levenshtein distance (insertions, deletions, substitutions), one row at a time. -#}
{% macro edit_distance(word, candidate) %}
    {%- set previous = range(candidate | length + 1) | list -%}
    {%- for i in range(1, word | length + 1) -%}
        {%- set current = [i] -%}
        {%- for j in range(1, candidate | length + 1) -%}
            {%- set cost = 0 if word[i - 1] == candidate[j - 1] else 1 -%}
            {%- do current.append([previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost] | min) -%}
        {%- endfor -%}
        {%- do previous.clear() -%}{%- do previous.extend(current) -%}
    {%- endfor -%}
    {{- return(previous[-1]) -}}
{% endmacro %}
