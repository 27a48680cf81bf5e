// recognise.cpp reads a page as gosseract's GetBoundingBoxesVerbose does
// (the same image decoding, source resolution, iteration and numbering),
// with a monitor whose cancel function Tesseract asks between words, so
// that a reading whose request has ended stops instead of running on.

#include <stdlib.h>
#include <string.h>

#include <leptonica/allheaders.h>
#include <tesseract/baseapi.h>
#include <tesseract/ocrclass.h>
#include <tesseract/resultiterator.h>

#include "recognise.h"

// stopped is the monitor's cancel function: the reading stops once the
// flag it watches is set.
static bool stopped(void *flag, int) { return *static_cast<volatile int *>(flag) != 0; }

extern "C" int docsuite_recognise(void *a, const unsigned char *data, int size, int psm, volatile int *stop,
                                  docsuite_words *out) {
  using namespace tesseract;
  TessBaseAPI *api = static_cast<TessBaseAPI *>(a);
  out->words = nullptr;
  out->length = 0;
  Pix *pix = pixReadMem(data, static_cast<size_t>(size));
  if (pix == nullptr) {
    return -1;
  }
  api->SetPageSegMode(static_cast<PageSegMode>(psm));
  api->SetImage(pix);
  if (api->GetSourceYResolution() < 70) {
    api->SetSourceResolution(70);
  }
  ETEXT_DESC monitor;
  monitor.cancel = stopped;
  monitor.cancel_this = const_cast<int *>(stop);
  int rc = api->Recognize(&monitor);
  if (*stop != 0) {
    api->Clear();
    pixDestroy(&pix);
    return 1;
  }
  if (rc != 0) {
    api->Clear();
    pixDestroy(&pix);
    return -2;
  }
  int capacity = 1000, n = 0;
  docsuite_word *words = static_cast<docsuite_word *>(malloc(capacity * sizeof(docsuite_word)));
  int block = 0, par = 0, line = 0, word = 0;
  ResultIterator *it = api->GetIterator();
  while (it != nullptr && !it->Empty(RIL_BLOCK)) {
    if (it->Empty(RIL_WORD)) {
      it->Next(RIL_WORD);
      continue;
    }
    if (it->IsAtBeginningOf(RIL_BLOCK)) {
      block++;
      par = line = word = 0;
    }
    if (it->IsAtBeginningOf(RIL_PARA)) {
      par++;
      line = word = 0;
    }
    if (it->IsAtBeginningOf(RIL_TEXTLINE)) {
      line++;
      word = 0;
    }
    word++;
    if (n == capacity) {
      capacity *= 2;
      words = static_cast<docsuite_word *>(realloc(words, capacity * sizeof(docsuite_word)));
    }
    docsuite_word *w = &words[n++];
    w->text = it->GetUTF8Text(RIL_WORD);
    w->confidence = it->Confidence(RIL_WORD);
    it->BoundingBox(RIL_WORD, &w->x1, &w->y1, &w->x2, &w->y2);
    w->block = block;
    w->par = par;
    w->line = line;
    w->word = word;
    it->Next(RIL_WORD);
  }
  delete it;
  api->Clear();
  pixDestroy(&pix);
  out->words = words;
  out->length = n;
  return 0;
}

extern "C" void docsuite_free_words(docsuite_words *w) {
  for (int i = 0; i < w->length; i++) {
    delete[] w->words[i].text;
  }
  free(w->words);
  w->words = nullptr;
  w->length = 0;
}
