// Assets page: groups on the left, registration and the live asset table in the middle, the selected asset's details; shown pending assets are polled.
import { useEffect } from 'react';
import { useStores } from '../../context.ts';
import { AssetDetail } from './AssetDetail.tsx';
import { AssetTable } from './AssetTable.tsx';
import { GroupsPanel } from './GroupsPanel.tsx';
import { RegisterForm } from './RegisterForm.tsx';
import { ScanLine } from './ScanLine.tsx';
import { useAssetPolling } from './use-asset-polling.ts';

export function AssetsPage() {
  const { assets } = useStores();
  useAssetPolling();
  useEffect(() => {
    const state = assets.getState();
    if (!state.groups) void state.loadGroups(1);
    if (!state.assets) void state.loadAssets(1);
  }, [assets]);
  return (
    <div className="page assets-page">
      <GroupsPanel />
      <div className="stack">
        <RegisterForm />
        <ScanLine />
        <AssetTable />
      </div>
      <AssetDetail />
    </div>
  );
}
