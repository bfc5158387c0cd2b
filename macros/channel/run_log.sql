{#- Mutable time: what a channel run says in dbt's log (with the change rows found committed
    behind the watermark: behind_watermark_warning), and its warning for deletes of items that
    did not exist; with a compaction's counts (compaction.sql). -#}
{% macro log_channel_run(settings, run, frontier, boundary, move, dropped, reached=none, compacted=none) %}
    {%- if run.missing_deletes > 0 -%}
        {%- do exceptions.warn("tideline: channel {}: {} deletes of items that did not exist were not applied (counted in tl_state.missing_deletes)".format(
            settings.name, run.missing_deletes)) -%}
    {%- endif -%}
    {%- set parts = ["tideline {}: {} real-time items, {} changes".format(settings.name, run.realtime_items, run.change_rows)] -%}
    {%- if frontier -%}{%- do parts.append(" up to {}".format(frontier)) -%}{%- endif -%}
    {%- if settings.change_arrival and run.late_changes > 0 -%}
        {%- do parts.append(" ({} loaded late, {} of them superseded by later changes)".format(run.late_changes, run.superseded)) -%}
    {%- endif -%}
    {%- do parts.append(", mutable_time {}".format(boundary or "none")) -%}
    {%- if move -%}{%- do parts.append(" (moved from {})".format(move.from or "the start")) -%}{%- endif -%}
    {%- if run.rejected > 0 -%}
        {%- do exceptions.warn("tideline: channel {}: {} change rows could not be applied and were set aside in {}__tl_quarantine ({} with an op other than insert or delete, {} deletes without an item id, {} for items after the mutable_time in force when they were committed{}); the other changes were applied".format(
            settings.name, run.rejected, settings.name, run.bad_ops, run.no_ids, run.too_late,
            ', {} for items a move made stable before they were loaded'.format(run.made_stable) if settings.change_arrival else '')) -%}
    {%- endif -%}
    {%- if dropped -%}{%- do parts.append(", {} item days dropped by retention_days".format(dropped)) -%}{%- endif -%}
    {%- if compacted -%}{%- do parts.append(", compacted: {} rows no reader keeps dropped from {} item dates".format(compacted.dropped, compacted.dates)) -%}{%- endif -%}
    {%- if reached -%}{%- do parts.append(tideline.behind_watermark_warning(settings.changes, reached)) -%}{%- endif -%}
    {{ log(parts | join(''), info=true) }}
{% endmacro %}
