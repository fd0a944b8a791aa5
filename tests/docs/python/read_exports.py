"""Reads a Drive export with the Python libraries readers use (Debian's python3-odf and python3-ebooklib) and prints
what a reader gets, as JSON: for an .odt its paragraphs, headings, list items, table cells and footnotes; for an .epub
its title, identifier, navigation and each chapter's text. Any XML these libraries cannot parse fails here."""
import json
import sys
import xml.dom.minidom


def odt(path):
    from odf import dc, opendocument, table, teletype, text

    doc = opendocument.load(path)
    body = doc.text
    return {
        "mimetype": doc.mimetype,
        "title": teletype.extractText(doc.meta.getElementsByType(dc.Title)[0]),
        "headings": [[h.getAttribute("outlinelevel"), teletype.extractText(h)] for h in body.getElementsByType(text.H)],
        "paragraphs": [teletype.extractText(p) for p in body.getElementsByType(text.P)],
        "listItems": len(body.getElementsByType(text.ListItem)),
        "cells": [teletype.extractText(c) for c in body.getElementsByType(table.TableCell)],
        "covered": len(body.getElementsByType(table.CoveredTableCell)),
        "notes": [teletype.extractText(n) for n in body.getElementsByType(text.NoteBody)],
        "links": [a.getAttribute("href") for a in body.getElementsByType(text.A)],
        "header": teletype.extractText(doc.masterstyles) if doc.masterstyles else "",
    }


def epub(path):
    import ebooklib
    from ebooklib import epub as ep

    book = ep.read_epub(path, {"ignore_ncx": True})
    chapters = []
    for item in book.get_items_of_type(ebooklib.ITEM_DOCUMENT):
        dom = xml.dom.minidom.parseString(item.get_content())  # strict XML: XHTML must be well-formed
        chapters.append([item.get_name(), "".join(t.data for t in walk(dom.getElementsByTagName("body")[0]))])
    return {
        "title": book.get_metadata("DC", "title")[0][0],
        "identifier": book.get_metadata("DC", "identifier")[0][0],
        "chapters": chapters,
    }


def walk(node):
    for child in node.childNodes:
        if child.nodeType == child.TEXT_NODE:
            yield child
        else:
            yield from walk(child)


if __name__ == "__main__":
    kind, path = sys.argv[1], sys.argv[2]
    print(json.dumps(odt(path) if kind == "odt" else epub(path)))
