// Package english forms the counted nouns of the messages the tools print ("1 job", "2 jobs", "3 entries"), so
// that every command counts the same way.
package english
