// What follows a statement on the same line must be another statement.
int x = 5 )
