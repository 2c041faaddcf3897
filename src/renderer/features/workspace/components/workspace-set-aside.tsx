import { SetAsideNotices } from '../../../ui/set-aside-notices';
import { useWorkspaceStore } from '../store';

/** Says that the saved workspace could not be read, where it was kept, and that this one starts empty. */
export function WorkspaceSetAside() {
  const notice = useWorkspaceStore((state) => state.setAside);
  const dismiss = useWorkspaceStore((state) => state.dismissSetAside);
  return notice ? <SetAsideNotices notices={[notice]} onDismiss={dismiss} /> : null;
}
