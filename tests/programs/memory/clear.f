// §10.11 clear behaves like free (and zeroes storage when it is actually released)
struct Key {
    bytes:text
}
Key k = {'bytes': 'hunter2'}
Key alias = k
clear k
log(k == null)
log(alias.bytes)
clear alias
log(alias == null)
clear alias
log('cleared twice')
