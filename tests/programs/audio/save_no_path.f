// save() on a clip with no path is a runtime failure (§14.2, §16.6).
aud none = null
log(none.saveCopy('never.tmp'))
none.save()
log('not reached')
