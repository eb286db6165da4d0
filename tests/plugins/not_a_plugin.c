/* An ordinary shared library in a plugin directory: no apertura_plugin_entry. */
int not_a_plugin_answer(void);
int not_a_plugin_answer(void) {
  return 42;
}
