// expect: 3:8 cannot import 'lib/does_not_exist.f': no such file
// §6.2 an import of a file that does not exist is a compile error
import lib/does_not_exist.f
log('never')
