{#- The four mutability kinds as materializations of their own name (materialized='immutable',
    ...): each runs the mutability materialization (mutability.sql) with its type. -#}

{% materialization immutable, adapter='spark' %}{{ return(tideline._materialize_mutability()) }}{% endmaterialization %}
{% materialization full_mutation, adapter='spark' %}{{ return(tideline._materialize_mutability()) }}{% endmaterialization %}
{% materialization append_only, adapter='spark' %}{{ return(tideline._materialize_mutability()) }}{% endmaterialization %}
{% materialization ds_append_only, adapter='spark' %}{{ return(tideline._materialize_mutability()) }}{% endmaterialization %}
