select * from {{ tideline.channel_previous(ref('readings'), var('channels__at'), 3, 'ALL') }}
