/* Written as libevent's buffer_compat.h is: it uses a struct that only
 * the header it is meant to follow declares (event2/buffer.h). */
int ns_length(struct ns_buffer *buf);
