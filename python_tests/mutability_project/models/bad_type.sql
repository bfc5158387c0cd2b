{{ config(materialized='mutability', mutability={'type': var('mutability__bad_type', 'sometimes_mutable')}) }}
select 1 as one
