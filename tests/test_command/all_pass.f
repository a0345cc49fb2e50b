// Everything passes: status 0. A declared but never called group reports
// 0 pass. 100%.
test t = 'all good'
t(1, 1)
t('a', 'a')
t(true, true)
test unused = 'unused'
log('ran')
