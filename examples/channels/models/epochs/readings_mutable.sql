select * from {{ tideline.channel_items(ref('readings'), 'MUTABLE') }}
