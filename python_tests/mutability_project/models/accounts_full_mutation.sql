{{ config(materialized='full_mutation', update_cron='0 13 * * *') }}
select account_id, balance from {{ var('mutability__source') }}.accounts
