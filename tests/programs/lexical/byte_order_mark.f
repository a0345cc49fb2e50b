// A UTF-8 byte-order mark at the start of a file is read as whitespace.
log('bom')
