select * from {{ tideline.channel_earliest(ref('readings'), 3, 'MUTABLE') }}
