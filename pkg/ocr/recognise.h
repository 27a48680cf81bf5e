// recognise.h declares the full-text reading that stops when told to
// (recognise.cpp).
#ifndef DOCSUITE_OCR_RECOGNISE_H
#define DOCSUITE_OCR_RECOGNISE_H

#ifdef __cplusplus
extern "C" {
#endif

// docsuite_word is one word read, as gosseract's GetBoundingBoxesVerbose
// reports it.
typedef struct {
  char *text;
  float confidence;
  int x1, y1, x2, y2;
  int block, par, line, word;
} docsuite_word;

// docsuite_words are the words of a reading.
typedef struct {
  docsuite_word *words;
  int length;
} docsuite_words;

// docsuite_recognise reads the image encoded in data (size bytes, any
// format Leptonica reads) with the Tesseract engine api in page
// segmentation mode psm. It stops between words once *stop is not zero
// and then returns 1 with no words; 0 when read, -1 when the image cannot
// be decoded, -2 when Tesseract fails. The words are freed with
// docsuite_free_words.
int docsuite_recognise(void *api, const unsigned char *data, int size, int psm, volatile int *stop, docsuite_words *out);

// docsuite_free_words frees the words of a reading.
void docsuite_free_words(docsuite_words *w);

#ifdef __cplusplus
}
#endif

#endif
