select * from {{ tideline.channel_next(ref('readings'), var('channels__at'), 3) }}
