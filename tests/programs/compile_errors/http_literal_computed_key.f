text k = 'url'
http r = {k: 'http://x/'}
