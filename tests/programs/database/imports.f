// A table and sqlite() calls from an imported file; the imported file's
// DatabaseURL has no effect, the entry file's first statement decides.
DatabaseURL = ':memory:'
import lib/inventory.f

restock('nuts', 4)
arr[Stock] all = sqlite('SELECT * FROM Stock ORDER BY item')
log(all)
blob stray = 'lib/never_created.sqlite'
log(stray.exists())
