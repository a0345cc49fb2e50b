// A query's rows go into arr[Table] or arr[Struct]; a scalar is read
// through a struct (§15.4, §15.5).
DatabaseURL = ':memory:'
int n = sqlite('SELECT count(*)')
