// The file ends inside a multi-byte character.
log('â‚