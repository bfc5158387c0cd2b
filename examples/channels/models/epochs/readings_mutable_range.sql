select * from {{ tideline.channel_items(ref('readings'), 'MUTABLE', var('channels__start'), var('channels__end')) }}
