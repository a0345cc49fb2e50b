// Not a *_test.f file: not run by `festina test suite`.
log('never')
