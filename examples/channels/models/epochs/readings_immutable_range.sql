select * from {{ tideline.channel_items(ref('readings'), 'IMMUTABLE', var('channels__start'), var('channels__end')) }}
