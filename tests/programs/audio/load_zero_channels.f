// A synchronous load of a file that cannot be read or decoded is a
// runtime failure (§8.13, §14.2).
aud clip = 'zero_channels.wav'
log('not reached')
