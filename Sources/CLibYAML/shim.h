/* libyaml (Debian: libyaml-dev, Fedora: libyaml-devel, Homebrew: libyaml), the system's copy.
 * FormworkCore reads YAML from libyaml's event stream (Parsing/YAMLReader.swift); taking the
 * library from the system instead of through Yams keeps Foundation out of every process
 * (loading Foundation's libraries would be most of a small command's start-up). */
#ifndef FORMWORK_CLIBYAML_SHIM_H
#define FORMWORK_CLIBYAML_SHIM_H
#include <yaml.h>
#endif
