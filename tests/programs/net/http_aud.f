// An aud body is sent as the clip's encoded bytes; toAud() decodes a
// body, and is null when it does not decode (§19.2).
aud clip = '../audio/short.wav'
http h = {'body': clip}
log(h.toBlob().length > 44)
aud back = h.toAud()
log(back != null)
http words = {'body': 'not audio'}
log(words.toAud() == null)
http none = {}
log(none.toAud() == null)
