select * from {{ tideline.channel_latest(ref('readings'), 3, 'ALL') }}
