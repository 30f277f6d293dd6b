import { useEffect, useState } from 'react';
import type { ModelVision, VisionChoiceName } from '../../../../shared/images-contract';
import { describeError, kasten } from '../../api';

const sources: Record<ModelVision['source'], string> = {
  setting: 'as set here',
  'this-run': 'as this run was started with --vision',
  ollama: 'as Ollama reports it',
  openrouter: 'as the server’s model list says',
  'known-models': 'from Kasten’s list of known models',
};

/** Whether the chat model sees images, where Kasten learned it, and the user's word on it per model. */
export function VisionSetting({ model }: { model: string }) {
  const [vision, setVision] = useState<ModelVision | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (model.trim() === '') return;
    let current = true;
    kasten.images.vision().then(
      (found) => current && setVision(found),
      (failure: unknown) => current && setError(describeError(failure)),
    );
    return () => {
      current = false;
    };
  }, [model]);
  if (model.trim() === '') return null;
  const choose = (choice: VisionChoiceName) =>
    kasten.images
      .setVision({ choice })
      .then(setVision, (failure: unknown) => setError(describeError(failure)));
  return (
    <section className="settings-section" aria-label="Images">
      <h3>Images</h3>
      <p className="field-note" data-testid="model-vision">
        {vision
          ? `${vision.model} ${vision.sees ? 'sees images' : 'takes text only'}, ${sources[vision.source]}.`
          : (error ?? 'Checking whether the model sees images…')}
      </p>
      <label className="field">
        <span>Sees images</span>
        <select
          value={vision?.choice ?? 'auto'}
          disabled={!vision}
          onChange={(event) => void choose(event.target.value as VisionChoiceName)}
        >
          <option value="auto">Automatic</option>
          <option value="on">Yes</option>
          <option value="off">No</option>
        </select>
      </label>
    </section>
  );
}
