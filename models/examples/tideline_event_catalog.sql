-- The event names the generator emits, grouped: a small lookup the examples join to. A model
-- (not a seed), so that a plain `dbt run` on a fresh schema builds everything it needs.
select
    event_names.event_name,
    event_names.event_group,
    event_names.description
from (
    values
    ('page_view', 'engagement', 'A page was viewed'),
    ('page_ping', 'engagement', 'A page stayed open (heartbeat while the user reads or scrolls)'),
    ('link_click', 'engagement', 'A tracked link was clicked'),
    ('transaction', 'commerce', 'An order was placed; tr_total holds its revenue')
) as event_names (event_name, event_group, description)
